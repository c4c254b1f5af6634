import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BuildOptions, BuildResult, OutputFile } from 'esbuild';

/**
 * esbuild as the tests load it (jest.config.js maps `esbuild` to this file). The app bundles its
 * browser scripts when it starts (src/web/web-assets.service.ts), once per process; but every test
 * file is a module registry of its own, so each file's first app bundled them again: about 0.4 s
 * of a file's 1 s first boot, over 80 files (issue 29 item 6). Here the real esbuild builds, and an
 * in-memory build (`write: false`) is kept for the rest of the jest run on disk, keyed by its
 * options and esbuild's version, and reused only while every input file esbuild read (its
 * metafile) still has the same content: a changed source is bundled again. Every other function
 * is esbuild's own.
 */

// The real package by its file: the name `esbuild` itself leads here.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const real = require(require.resolve('esbuild/lib/main.js')) as typeof import('esbuild');

interface Kept {
  /** Every input file (absolute path) and the SHA-256 of its content when it was bundled. */
  inputs: Record<string, string>;
  outputs: { path: string; hash: string; contents: string }[];
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

function keptDir(): string | undefined {
  const runId = process.env.ARCADE_TEST_RUN_ID;
  return runId ? join(tmpdir(), `arcade_t_${runId}_bundles`) : undefined;
}

function read(file: string): Kept | undefined {
  try {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as Kept;
    for (const [input, hash] of Object.entries(kept.inputs)) {
      if (sha256(readFileSync(input)) !== hash) return undefined;
    }
    return kept;
  } catch {
    return undefined;
  }
}

function outputFile(path: string, hash: string, contents: Uint8Array): OutputFile {
  return {
    path,
    hash,
    contents,
    get text() {
      return Buffer.from(contents).toString('utf8');
    },
  };
}

async function build(options: BuildOptions): Promise<BuildResult> {
  const dir = keptDir();
  if (!dir || options.write !== false || options.plugins?.length || options.metafile) return real.build(options);
  const file = join(dir, `${sha256(JSON.stringify([real.version, options]))}.json`);
  const kept = read(file);
  if (kept) {
    return {
      errors: [],
      warnings: [],
      outputFiles: kept.outputs.map((o) => outputFile(o.path, o.hash, new Uint8Array(Buffer.from(o.contents, 'base64')))),
      metafile: undefined,
      mangleCache: undefined,
    } as BuildResult;
  }
  const result = await real.build({ ...options, metafile: true });
  const base = options.absWorkingDir ?? process.cwd();
  const entry: Kept = {
    inputs: Object.fromEntries(Object.keys(result.metafile.inputs).map((input) => [resolve(base, input), sha256(readFileSync(resolve(base, input)))])),
    outputs: (result.outputFiles ?? []).map((o) => ({ path: o.path, hash: o.hash, contents: Buffer.from(o.contents).toString('base64') })),
  };
  mkdirSync(dir, { recursive: true });
  // Two workers may bundle at once: each writes its own file and renames it into place.
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, JSON.stringify(entry));
  renameSync(partial, file);
  return { ...result, metafile: undefined } as BuildResult;
}

module.exports = { ...real, build };
