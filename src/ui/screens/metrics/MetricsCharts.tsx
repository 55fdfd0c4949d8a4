import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip, type ChartConfiguration } from 'chart.js';
import { useEffect, useRef } from 'react';
import { currentLocale, t } from '../../i18n.ts';
import * as styles from './metrics.css.ts';
import { taskName } from './taskNames.ts';

// Only what bar charts need: keeps the lazily loaded chunk small.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

/**
 * SPEC §9's chart palette: 18 colours, the theme's primary, secondary and accent first, then hues far
 * enough apart that neighbouring bars stay told apart in light and dark themes.
 */
export const CHART_PALETTE = [
  '#005ed3', '#fec000', '#ff0335', '#2e9e44', '#8e44ad', '#00a6b4',
  '#f57c00', '#6d4c41', '#e91e63', '#3949ab', '#7cb342', '#00897b',
  '#c62828', '#5e35b1', '#fdd835', '#546e7a', '#d81b60', '#26a69a',
] as const;

export interface ChartSeries {
  label: string;
  values: number[];
}

/** One bar chart on a canvas; the table beside it carries the same figures for every reader. */
function BarChart(props: { title: string; labels: string[]; series: ChartSeries[]; format?: (value: number) => string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const { title, labels, series, format } = props;
  // Redrawn when the figures change, not on every render of the screen.
  const figures = JSON.stringify({ labels, series });
  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const text = getComputedStyle(element).color;
    // Numbers on the axes in the interface language; bars, axis and legend mirrored right-to-left.
    const rtl = getComputedStyle(element).direction === 'rtl';
    const config: ChartConfiguration<'bar'> = {
      type: 'bar',
      data: {
        labels,
        datasets: series.map((s, i) => ({
          label: s.label,
          data: s.values,
          backgroundColor: series.length === 1 ? labels.map((_, j) => CHART_PALETTE[j % CHART_PALETTE.length]!) : CHART_PALETTE[i % CHART_PALETTE.length],
        })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        locale: currentLocale(),
        color: text,
        plugins: {
          legend: { display: series.length > 1, rtl, labels: { color: text } },
          tooltip: { rtl, ...(format ? { callbacks: { label: (item) => t('common.label_value', { label: item.dataset.label ?? '', value: format(item.parsed.y ?? 0) }) } } : {}) },
        },
        scales: {
          x: { reverse: rtl, ticks: { color: text } },
          y: { beginAtZero: true, position: rtl ? 'right' : 'left', ticks: { color: text, ...(format ? { callback: (value) => format(Number(value)) } : {}) } },
        },
      },
    };
    const chart = new Chart(element, config);
    return () => chart.destroy();
  }, [figures, format]);
  return (
    <figure className={styles.figure}>
      <figcaption className={styles.caption}>{title}</figcaption>
      <div className={styles.canvasBox}>
        <canvas ref={canvas} role="img" aria-label={title} data-testid="metrics-chart" />
      </div>
    </figure>
  );
}

/** The metrics screen's charts, loaded only when the screen shows (Chart.js is a chunk of its own). */
export default function MetricsCharts(props: {
  libraries: { name: string; series: number; books: number; size: number }[];
  tasks: { type: string; count: number; failures: number }[];
  formatBytes: (bytes: number) => string;
}) {
  const libraryNames = props.libraries.map((l) => l.name);
  const taskNames = props.tasks.map((task) => taskName(task.type));
  return (
    <div className={styles.charts}>
      {props.libraries.length > 0 && (
        <>
          <BarChart
            title={t('metrics.libraries')}
            labels={libraryNames}
            series={[
              { label: t('metrics.columns.series'), values: props.libraries.map((l) => l.series) },
              { label: t('metrics.columns.books'), values: props.libraries.map((l) => l.books) },
            ]}
          />
          <BarChart
            title={t('metrics.columns.disk_space')}
            labels={libraryNames}
            series={[{ label: t('metrics.columns.disk_space'), values: props.libraries.map((l) => l.size) }]}
            format={props.formatBytes}
          />
        </>
      )}
      {props.tasks.length > 0 && (
        <BarChart
          title={t('metrics.tasks')}
          labels={taskNames}
          series={[
            { label: t('metrics.columns.executed'), values: props.tasks.map((task) => task.count) },
            { label: t('metrics.columns.failures'), values: props.tasks.map((task) => task.failures) },
          ]}
        />
      )}
    </div>
  );
}
