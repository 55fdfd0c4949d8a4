import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Runs axe-core on the page as it is now and expects no violation. The failure lists each rule
 * with the elements it flagged, so the report says what to fix without opening a trace.
 */
export async function expectNoAxeViolations(page: Page, options: { rules?: string[] } = {}): Promise<void> {
  // Contrast read halfway through a transition (a drawer sliding, a dialog fading in) is neither
  // colour's: scanned once every finite animation has ended (a spinner runs for ever, so not those).
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
  );
  let builder = new AxeBuilder({ page });
  if (options.rules) builder = builder.withRules(options.rules);
  const { violations } = await builder.analyze();
  const readable = violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1).join('; ')}`).join('\n')}`,
  );
  // Soft: a scan of several screens reports every screen with violations, not just the first.
  expect.soft(readable, `axe violations on ${page.url()}`).toEqual([]);
}
