/**
 * Module boundaries (docs/architecture.md), checked by `npm run lint`:
 * - a module (src/modules/<m>/) is used from outside only through its entry file, index.ts;
 * - the framework layers (config, errors, http, database, web/layout) import no module;
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
      comment:
        "Code outside src/modules (app, web, ops) uses a module through its entry file. The one exception: src/database/entities.ts lists every module's entities for TypeORM's DataSource.",
      from: { path: '^src/', pathNot: ['^src/modules/', '^src/database/entities\\.ts$'] },
      to: { path: '^src/modules/[^/]+/', pathNot: '^src/modules/[^/]+/index\\.ts$' },
    },
    {
      name: 'framework-layers-know-no-module',
      severity: 'error',
      comment:
        'src/config*, src/errors, src/http, src/database and src/web/layout sit below the modules: every module may use them, so they import no module (entities.ts excepted, see above).',
      from: { path: '^src/(config|errors/|http/|database/|web/layout/)', pathNot: '^src/database/entities\\.ts$' },
      to: { path: '^src/modules/' },
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
