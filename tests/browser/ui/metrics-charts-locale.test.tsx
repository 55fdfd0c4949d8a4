import { Chart } from 'chart.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { formatBytes } from '../../../src/ui/format.ts';
import { t } from '../../../src/ui/i18n.ts';
import MetricsCharts from '../../../src/ui/screens/metrics/MetricsCharts.tsx';
import { applyLocale } from '../../../src/ui/store/localeChoice.ts';
import { renderAt } from './render.tsx';

let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => view?.unmount());
afterAll(() => applyLocale('en'));

const libraries = [
  { name: 'Comics', series: 1200, books: 34000, size: 5_000_000_000 },
  { name: 'Manga', series: 300, books: 9000, size: 2_000_000_000 },
];

/** The metrics charts speak the interface language: its number format, and its direction. */
describe.each([
  ['fr', 'ltr'],
  ['ar', 'rtl'],
] as const)('MetricsCharts in %s', (code, dir) => {
  it(`formats axis numbers in ${code} and runs ${dir}`, async () => {
    await applyLocale(code);
    view = renderAt(
      '/',
      <div dir={dir} style={{ width: 600 }}>
        <MetricsCharts libraries={libraries} tasks={[]} formatBytes={formatBytes} />
      </div>,
    );
    await expect.element(page.getByTestId('metrics-chart').first()).toBeInTheDocument();
    const canvas = page.getByTestId('metrics-chart').first().element() as HTMLCanvasElement;
    await expect.poll(() => Chart.getChart(canvas)).toBeDefined();
    const chart = Chart.getChart(canvas);
    expect(chart?.options.locale).toBe(code);
    expect(chart?.options.scales?.x?.reverse).toBe(dir === 'rtl');
    expect(chart?.options.plugins?.legend?.rtl).toBe(dir === 'rtl');
    // The disk-space chart's tooltip: label and value joined as the language punctuates them ("a : b" in French, a no-break space before the colon).
    const disk = Chart.getChart(page.getByTestId('metrics-chart').nth(1).element() as HTMLCanvasElement)!;
    const tooltip = disk.options.plugins!.tooltip!.callbacks!.label as (item: unknown) => string;
    const shown = tooltip.call(disk.tooltip, { dataset: { label: t('metrics.columns.disk_space') }, parsed: { y: 5_000_000_000 } });
    expect(shown).toBe(t('common.label_value', { label: t('metrics.columns.disk_space'), value: formatBytes(5_000_000_000) }));
    if (code === 'fr') expect(shown).toContain('\u00a0: ');
  });
});

/** Task types come from the server as Komga's identifiers; the charts name the known ones in the language. */
describe('MetricsCharts task names', () => {
  it('de: known task types are named in German, an unknown one as sent', async () => {
    await applyLocale('de');
    const tasks = [
      { type: 'GenerateBookThumbnail', count: 3, failures: 0 },
      { type: 'ScanLibrary', count: 1, failures: 0 },
      { type: 'SomeFutureTask', count: 1, failures: 1 },
    ];
    view = renderAt('/', <MetricsCharts libraries={[]} tasks={tasks} formatBytes={formatBytes} />);
    await expect.element(page.getByTestId('metrics-chart').first()).toBeInTheDocument();
    const canvas = page.getByTestId('metrics-chart').first().element() as HTMLCanvasElement;
    await expect.poll(() => Chart.getChart(canvas)).toBeDefined();
    expect(Chart.getChart(canvas)?.data.labels).toEqual(['Titelbild des Buchs erzeugen', 'Bibliothek scannen', 'SomeFutureTask']);
  });
});
