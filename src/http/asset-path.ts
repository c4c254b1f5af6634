/**
 * Versioned paths of the pages' scripts and stylesheet: `/assets/pages.<hash>.js`, where the hash
 * is the file's content, so the path changes whenever the file does and the file can be cached for
 * a year (issue 14). Registered by the web assets once they are built; pages call `assetPath()`.
 */
const versions = new Map<string, string>();

/** Called by WebAssetsService when the assets are built (once per process). */
export function registerAssetVersion(name: string, version: string): void {
  versions.set(name, version);
}

/** `arcade.css` → `/assets/arcade.<version>.css` (the unversioned path before the assets are built). */
export function assetPath(name: string): string {
  const version = versions.get(name);
  if (!version) return `/assets/${name}`;
  const dot = name.lastIndexOf('.');
  return `/assets/${name.slice(0, dot)}.${version}${name.slice(dot)}`;
}

/** `pages.<version>.js` → `{ name: 'pages.js', version }`; undefined for an unversioned name. */
export function parseVersionedName(file: string): { name: string; version: string } | undefined {
  const match = /^(.+)\.([0-9a-f]{12})(\.[a-z]+)$/.exec(file);
  return match ? { name: `${match[1]}${match[3]}`, version: match[2]! } : undefined;
}
