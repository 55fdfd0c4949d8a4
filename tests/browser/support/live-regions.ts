import { expect } from 'vitest';
import type { Locator } from 'vitest/browser';

/**
 * Screen readers announce a change inside a live region they already track; a region inserted
 * together with its text is often not spoken at all. A test marks the regions in the page before
 * the action (`markLiveRegions`), then checks that the message appeared inside one of them, which
 * did not already say it (`expectSpokenInRegionThatWasThere`).
 */
const LIVE = '[role="status"], [role="alert"], [role="log"], [aria-live]';
const before = new WeakMap<Element, string>();

export function markLiveRegions(): number {
  const regions = document.querySelectorAll(LIVE);
  for (const region of regions) before.set(region, region.textContent ?? '');
  return regions.length;
}

export async function expectSpokenInRegionThatWasThere(message: Locator): Promise<void> {
  await expect.element(message).toBeVisible();
  const region = message.element().closest(LIVE);
  expect(region, 'the message is inside a live region').not.toBeNull();
  expect(before.has(region as Element), 'its live region was in the page before the message').toBe(true);
  expect(before.get(region as Element), 'the region said something else before').not.toContain(message.element().textContent ?? '');
}
