import { useSnapshot } from 'valtio';
import { SelectField } from '../../components/SelectField.tsx';
import { formatNumber } from '../../format.ts';
import { t } from '../../i18n.ts';
import { DUPLICATES_PAGE_SIZES, preferences } from '../../store/preferences.ts';

/** The duplicates screens' page size, remembered in this browser (SPEC §3 per-user preferences). */
export function useDuplicatesPageSize(): number {
  return useSnapshot(preferences).duplicatesPageSize;
}

/** "Per page" for the duplicates lists; a new size starts again from the first page. */
export function DuplicatesPageSizeField({ onChanged }: { onChanged: () => void }) {
  const size = useDuplicatesPageSize();
  return (
    <SelectField
      label={t('browse.page_size')}
      value={String(size)}
      options={DUPLICATES_PAGE_SIZES.map((option) => ({ value: String(option), label: formatNumber(option) }))}
      onChange={(value) => {
        preferences.duplicatesPageSize = Number(value);
        onChanged();
      }}
    />
  );
}
