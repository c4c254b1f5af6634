/**
 * Module boundaries and floors (docs/architecture.md), checked by `npm run lint`:
 * - a module (src/modules/<m>/) is used from outside only through its entry file, index.ts;
 * - the floors below the modules (config, errors, database, http with the page kit src/http/pages)
 *   import no module and nothing above it (app pages, the app, ops tools);
 * - modules import no app page (src/web) and not the app that composes them;
 * - migrations import no service code (they are history: inlined, frozen);
 * - no import cycles (between files, hence between modules: see no-circular);
 * - domain rules (*.rules.ts) are plain TypeScript: no framework, no database.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'module-entry-only',
      severity: 'error',
      comment: "Another module is imported through its entry file ('../identity'), never a file inside it.",
      from: { path: '^src/modules/([^/]+)/', pathNot: '\\.rules\\.ts$' },
      to: { path: '^src/modules/[^/]+/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$'] },
    },
    {
      name: 'module-entry-only-outside-modules',
      severity: 'error',
      comment: 'Code outside src/modules (app, web, ops) uses a module through its entry file.',
      from: { path: '^src/', pathNot: '^src/modules/' },
      to: { path: '^src/modules/[^/]+/', pathNot: '^src/modules/[^/]+/index\\.ts$' },
    },
    {
      name: 'framework-layers-know-no-module',
      severity: 'error',
      comment:
        'src/config*, src/errors, src/database, src/registry, src/observability (metrics, tracing hooks) and src/http (with the page kit, src/http/pages) sit below the modules: every module may use them, so they import no module, no app page (src/web) and not the app (the DataSource finds the entities by file name).',
      from: { path: '^src/(config|errors/|http/|database/|registry/|observability/)' },
      to: { path: '^src/(modules/|web/|app\\.|main\\.|tracing\\.|ops/)' },
    },
    {
      name: 'modules-know-no-app-page',
      severity: 'error',
      comment:
        "The app's pages (src/web: the arcade and /me pages, SDK, host page, demo seed) sit on top of the modules; a module builds its pages from the page kit (src/http/pages), never from them, and never imports the app that composes it.",
      from: { path: '^src/modules/' },
      to: { path: '^src/(web/|app\\.|main\\.|ops/)' },
    },
    {
      name: 'migrations-are-frozen',
      severity: 'error',
      comment:
        'A migration is history: what it needs of the service (an e-mail rule, a character class) is copied into it as it was that day, so it never changes when the code does. It imports nothing from src/.',
      from: { path: '^migrations/' },
      to: { path: '^src/' },
    },
    {
      name: 'rules-import-rules-only',
      severity: 'error',
      comment:
        "A *.rules.ts file of one module may use another module's rules directly (pure functions: the entry file would pull the framework in), nothing else of it.",
      from: { path: '^src/modules/([^/]+)/.+\\.rules\\.ts$' },
      to: { path: '^src/modules/[^/]+/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/(index|.+\\.rules)\\.ts$'] },
    },
    {
      name: 'rules-are-pure',
      severity: 'error',
      comment: 'Domain rules (*.rules.ts) import no framework (@nestjs/*, typeorm, pg, express) and no database code.',
      from: { path: '\\.rules\\.ts$' },
      to: { path: ['(^|/)node_modules/(@nestjs/|typeorm/|pg/|pg-|express/|@types/express)', '^src/database/', '^src/modules/[^/]+/index\\.ts$', '\\.(service|repository|module|controller|entity)\\.ts$'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No import cycles between files. Cross-module imports go through index.ts, which leads to every file of its module, so this also refuses a cycle between modules (identity -> wallet -> identity).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that does not resolve.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.spec\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.d.ts'] },
  },
};
