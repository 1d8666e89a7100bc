// Builds the console into ../dist: one script and one style sheet with
// content-hashed names, and index.html naming them. No inline script or
// style anywhere, so the Content-Security-Policy can forbid both.
import { build } from 'esbuild';
import { readFileSync, writeFileSync, rmSync, mkdirSync } from 'node:fs';
import { basename } from 'node:path';

const out = new URL('../dist/', import.meta.url).pathname;
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const result = await build({
  entryPoints: ['src/main.js', 'src/style.css'],
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2020'],
  entryNames: 'assets/[name]-[hash]',
  outdir: out,
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
});

const files = Object.keys(result.metafile.outputs).map((p) => 'assets/' + basename(p));
const js = files.find((f) => f.endsWith('.js'));
const css = files.find((f) => f.endsWith('.css'));
const html = readFileSync('src/index.html', 'utf8').replace('%JS%', js).replace('%CSS%', css);
writeFileSync(out + 'index.html', html);
console.log('console built:', js, css);
