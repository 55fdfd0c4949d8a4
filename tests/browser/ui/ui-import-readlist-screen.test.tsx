import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { READ_LIST_FILE_MAX_MB } from '../../../src/api/readListImport.ts';
import { failRequests, logInAsAdmin } from '../support/folio.ts';
import { renderAt } from './render.tsx';

const { ImportReadListScreen } = await import('../../../src/ui/screens/ImportReadListScreen.tsx');

beforeAll(async () => {
  await logInAsAdmin();
});

let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => view?.unmount());

describe('ImportReadListScreen', () => {
  it('refuses a list over the size limit before uploading it, naming the limit in MB (SPEC §5)', async () => {
    // Were the file sent, the server's answer would be this 500, and the screen would show it.
    const match = await failRequests(/\/api\/v1\/readlists\/match\/comicrack$/, 500, { message: 'should not be asked' });
    try {
      view = renderAt('/import/readlist', <ImportReadListScreen />);
      const big = new File([new Uint8Array(READ_LIST_FILE_MAX_MB * 1024 * 1024 + 1)], 'huge.cbl', { type: 'application/xml' });
      await userEvent.upload(page.getByLabelText('ComicRack read list (.cbl)'), big);
      await userEvent.click(page.getByRole('button', { name: 'Match' }));
      await expect.element(page.getByRole('alert')).toHaveTextContent(`The file must be smaller than ${READ_LIST_FILE_MAX_MB} MB.`);
      expect(await match.answered()).toBe(0);
    } finally {
      await match.restore();
    }
  });
});
