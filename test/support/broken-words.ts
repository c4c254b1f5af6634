import type { Page } from 'playwright-core';

/**
 * Words inside the page's tables (headers, cells, buttons) whose text lies on more than one line
 * (CONTRACT §17.2 "Tables"): each word's range is measured, and a word whose boxes sit at more
 * than one height is broken. test/browser/word-breaks.browser-spec.ts checks every page this way
 * and more; page tests use this for the rows they build.
 */
export function brokenWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(document.querySelector('main')!, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement!;
      // Text for screen readers only is clipped to a pixel on purpose.
      if (!parent.closest('table') || parent.closest('.visually-hidden, template, dialog')) continue;
      for (const match of (node.textContent ?? '').matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index!);
        range.setEnd(node, match.index! + match[0].length);
        const tops = new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(match[0]);
      }
    }
    return broken;
  });
}
