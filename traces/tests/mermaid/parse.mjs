// Parses each file named on the command line with mermaid's own parser (`mermaid.parse`),
// under node with a jsdom window. Run from a directory where `mermaid` and `jsdom` are
// installed (npm install mermaid jsdom): .ci/run does this. Prints one line per file and exits 1
// if any file does not parse.
import { readFileSync } from 'node:fs';
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const { default: mermaid } = await import('mermaid');
mermaid.initialize({ startOnLoad: false });

let failed = 0;
// Under `node -e`, process.argv[1] is already the first file.
const files = process.argv.slice(1).filter((a) => a.endsWith('.mmd'));
if (files.length === 0) {
  console.log('no .mmd files given');
  process.exit(2);
}
for (const file of files) {
  try {
    const r = await mermaid.parse(readFileSync(file, 'utf8'));
    console.log(`ok ${r.diagramType} ${file}`);
  } catch (e) {
    failed += 1;
    console.log(`FAILED ${file}: ${String(e.message).split('\n').join(' | ')}`);
  }
}
process.exit(failed ? 1 : 0);
