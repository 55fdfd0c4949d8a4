import { TabLinks } from '../components/TabLinks.tsx';
import { t } from '../i18n.ts';

/** Switches between the two import screens. */
export function ImportTabs({ current }: { current: 'books' | 'readlist' }) {
  return (
    <TabLinks
      label={t('import_books.views')}
      tabs={(['books', 'readlist'] as const).map((view) => ({
        key: view,
        href: `/import/${view}`,
        label: t(view === 'books' ? 'import_books.title' : 'import_readlist.title'),
      }))}
      current={current}
    />
  );
}
