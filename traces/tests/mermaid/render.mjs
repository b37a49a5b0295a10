// Renders the one diagram file named on the command line with mermaid's own `mermaid.render`,
// under node with a jsdom window, and prints the text of every `<text>` element of the SVG,
// one JSON string a line: what a reader of the picture sees. jsdom lays nothing out, so text
// is measured as 8 px a character and style sheets are empty. Run from a directory where
// `mermaid` and `jsdom` are installed (as `parse.mjs`).
import { readFileSync } from 'node:fs';
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><html><body></body></html>', { pretendToBeVisual: true });
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const measure = function () {
  const w = 8 * (this.textContent || '').length;
  return { x: 0, y: 0, width: w, height: 16 };
};
window.SVGElement.prototype.getBBox = measure;
window.SVGElement.prototype.getComputedTextLength = function () {
  return measure.call(this).width;
};
globalThis.CSSStyleSheet = class {
  replaceSync() {}
  insertRule() {}
  get cssRules() {
    return [];
  }
};
const { default: mermaid } = await import('mermaid');
mermaid.initialize({ startOnLoad: false });

const files = process.argv.slice(1).filter((a) => a.endsWith('.mmd'));
if (files.length !== 1) {
  console.log('give one .mmd file');
  process.exit(2);
}
const { svg } = await mermaid.render('diagram', readFileSync(files[0], 'utf8'));
const picture = new JSDOM(svg, { contentType: 'image/svg+xml' });
for (const t of picture.window.document.querySelectorAll('text')) {
  console.log(JSON.stringify(t.textContent));
}
