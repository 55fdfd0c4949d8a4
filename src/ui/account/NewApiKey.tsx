import { useRef, useState } from 'react';
import { TextField } from '../components/TextField.tsx';
import * as buttons from '../components/buttons.css.ts';
import * as form from '../components/form.css.ts';
import { t } from '../i18n.ts';

/**
 * A new API key, shown once: in a read-only field (select it whole with one tap on a phone) with a
 * Copy button. The clipboard API only exists on secure pages, and a self-hosted server is often
 * opened over plain http on the LAN: there the key is selected and the browser's copy command used,
 * and when even that fails the admin is told to copy the selected key.
 */
export function NewApiKey({ apiKey }: { apiKey: string }) {
  // TextField takes no ref: the row holds the field, and the input is found in it.
  const row = useRef<HTMLDivElement>(null);
  const [copied, setCopied] = useState<'yes' | 'no' | undefined>(undefined);

  async function copy() {
    const input = row.current?.querySelector('input');
    input?.focus();
    input?.select();
    try {
      if (navigator.clipboard) await navigator.clipboard.writeText(apiKey);
      else if (!document.execCommand('copy')) throw new Error('the copy command was refused');
      setCopied('yes');
    } catch (failure) {
      console.warn('Copying the new API key failed; the key is left selected', failure);
      input?.select();
      setCopied('no');
    }
  }

  return (
    <>
      <div ref={row} className={form.row}>
        <TextField
          label={t('my_account.api_keys.new_key')}
          value={apiKey}
          readOnly
          spellCheck={false}
          data-testid="new-api-key"
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" className={buttons.secondary} onClick={() => void copy()}>
          {t('my_account.api_keys.copy')}
        </button>
      </div>
      <p role="status">{copied === 'yes' ? t('my_account.api_keys.copied') : copied === 'no' ? t('my_account.api_keys.copy_failed') : ''}</p>
    </>
  );
}
