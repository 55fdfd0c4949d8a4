import { afterEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { HorizontalRow } from '../../../src/ui/components/HorizontalRow.tsx';
import '../../../src/ui/theme/theme.css.ts';
import { renderAt } from './render.tsx';

let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => view?.unmount());

const items = Array.from({ length: 30 }, (_, i) => `Item ${i + 1}`);

/** A dashboard row in a right-to-left page: scrolled to its far (left) end, it asks for the next page. */
describe.each(['ltr', 'rtl'] as const)('HorizontalRow in a %s page', (dir) => {
  it('calls onNearEnd once the row is scrolled to its end', async () => {
    const onNearEnd = vi.fn();
    view = renderAt(
      '/',
      <div dir={dir} style={{ width: 600 }}>
        <HorizontalRow title="Row" items={items} itemKey={(item) => item} renderItem={(item) => <span>{item}</span>} onNearEnd={onNearEnd} />
      </div>,
    );
    const list = page.getByRole('list');
    await expect.element(list).toBeVisible();
    const element = list.element() as HTMLUListElement;
    expect(element.scrollWidth).toBeGreaterThan(element.clientWidth);
    // The end of the row: scrollLeft runs toward negative values when the row is right-to-left.
    const end = (element.scrollWidth - element.clientWidth) * (dir === 'rtl' ? -1 : 1);
    element.scrollLeft = end;
    await expect.poll(() => onNearEnd.mock.calls.length).toBeGreaterThan(0);
  });
});
