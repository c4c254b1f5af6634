import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { build } from 'esbuild';
import { registerAssetVersion } from '../http/asset-path';

export interface Asset {
  body: Buffer;
  contentType: string;
  /** The first 12 hex digits of the body's SHA-256: the version in its long-cached path. */
  version: string;
}

function asset(body: Buffer, contentType: string): Asset {
  return { body, contentType, version: createHash('sha256').update(body).digest('hex').slice(0, 12) };
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.ts': 'application/typescript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** The repository root: browser sources are read from `src/web` whether we run from src (tests) or dist. */
function projectRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + __dirname);
    dir = parent;
  }
  return dir;
}

export const WEB_SOURCE_DIR = resolve(projectRoot(), 'src', 'web');

/** Browser bundles built from TypeScript at start-up (esbuild, in memory): nothing built is committed. */
const BUNDLES = {
  sdk: 'sdk/v1.browser.ts',
  host: 'host/host.browser.ts',
  pages: 'pages/pages.browser.ts',
} as const;

let bundling: Promise<Map<keyof typeof BUNDLES, Asset>> | undefined;

/** Bundles once per process (tests start many apps), in memory. */
function bundled(): Promise<Map<keyof typeof BUNDLES, Asset>> {
  bundling ??= build({
    entryPoints: Object.fromEntries(Object.entries(BUNDLES).map(([name, file]) => [name, join(WEB_SOURCE_DIR, file)])),
    bundle: true,
    write: false,
    format: 'iife',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    outdir: '/out',
    logLevel: 'silent',
  }).then((result) => {
    const assets = new Map<keyof typeof BUNDLES, Asset>();
    for (const output of result.outputFiles) {
      const name = output.path.replace(/^.*\//, '').replace(/\.js$/, '') as keyof typeof BUNDLES;
      assets.set(name, asset(Buffer.from(output.contents), CONTENT_TYPES['.js']!));
    }
    return assets;
  });
  return bundling;
}

/**
 * Everything the browser side serves: the SDK and page scripts (bundled once at start-up), the
 * stylesheet, the SDK's type declarations and the demo games' static files.
 */
@Injectable()
export class WebAssetsService implements OnModuleInit {
  private readonly bundles = new Map<keyof typeof BUNDLES, Asset>();
  private readonly files = new Map<string, Asset>();

  async onModuleInit(): Promise<void> {
    for (const [name, bundle] of await bundled()) {
      this.bundles.set(name, bundle);
      if (name !== 'sdk') registerAssetVersion(`${name}.js`, bundle.version);
    }
    this.addFile('/assets/arcade.css', join(WEB_SOURCE_DIR, 'assets', 'arcade.css'));
    registerAssetVersion('arcade.css', this.files.get('/assets/arcade.css')!.version);
    this.addFile('/sdk/v1.d.ts', join(WEB_SOURCE_DIR, 'sdk', 'arcade-sdk.d.ts'));
    const demoRoot = join(WEB_SOURCE_DIR, 'demo-games');
    for (const game of readdirSync(demoRoot)) {
      for (const file of readdirSync(join(demoRoot, game))) {
        this.addFile(`/demo-games/${game}/${file}`, join(demoRoot, game, file));
      }
    }
  }

  bundle(name: keyof typeof BUNDLES): Asset {
    return this.bundles.get(name)!;
  }

  /** A page script or the stylesheet by its name under /assets (`pages.js`, `host.js`, `arcade.css`). */
  pageAsset(name: string): Asset | undefined {
    return name === 'host.js' ? this.bundles.get('host') : name === 'pages.js' ? this.bundles.get('pages') : this.files.get(`/assets/${name}`);
  }

  file(path: string): Asset | undefined {
    return this.files.get(path);
  }

  private addFile(urlPath: string, filePath: string): void {
    this.files.set(urlPath, asset(readFileSync(filePath), CONTENT_TYPES[extname(filePath)] ?? 'application/octet-stream'));
  }
}
