/**
 * Gatehouse's dependency rules, checked by `npm run check:deps` (and in CI): docs/architecture.md "Layout and
 * dependency rules" says what each one is for. Every import is followed, type-only ones included.
 *
 * Temporary exceptions are listed by name at the bottom, each with the import it allows and why it is still there;
 * an exception allows that one import, never the rest of the rule for the file.
 */

/** A module's own folder, captured: `$1` in a `to` path is the importing file's module. */
const MODULE = '^src/modules/([^/]+)/';
const REPO = '^src/modules/[^/]+/[^/]+\\.repo\\.ts$';

/**
 * Imports that break a rule today and are allowed until the code they sit in is reworked: the rule's name, the
 * importing file, the imported file, and why.
 */
const TEMPORARY_EXCEPTIONS = [
  {
    rule: 'no-circular', from: '^src/cli/(main|commands/quickstart)\\.ts$', to: '^src/cli/(main|commands/quickstart)\\.ts$',
    why: 'quickstart opens the command channel, which runs any `gatehouse` command through cli/main.ts, and cli/main.ts '
      + 'loads quickstart lazily (both are dynamic imports); passing runCommand in would end the circle',
  },
  {
    rule: 'no-cross-module-repo', from: '^src/modules/auth/login\\.repo\\.ts$',
    to: '^src/modules/(users/users|sessions/sessions)\\.repo\\.ts$',
    why: 'the sign-in statement borrows the users repo\'s row type and the sessions repo\'s active-sessions query',
  },
  {
    rule: 'no-db-in-routes', from: '^src/modules/ops/health\\.routes\\.ts$', to: '^src/db/migrator\\.ts$',
    why: 'readiness counts pending migrations and runs `select 1` in the route; a health service should own both',
  },
];

/** A rule's `from`, minus the files that hold exceptions to it (those get a rule of their own below). */
const fromExcept = (rule, from) => {
  const excepted = TEMPORARY_EXCEPTIONS.filter((e) => e.rule === rule).map((e) => e.from);
  return excepted.length ? { ...from, pathNot: [...[from.pathNot ?? []].flat(), ...excepted] } : from;
};

/** For each file holding an exception: the same rule, minus the one import it is allowed. */
const exceptionRules = (rules) => TEMPORARY_EXCEPTIONS.map((e) => {
  const rule = rules.find((r) => r.name === e.rule);
  if (!rule) throw new Error(`.dependency-cruiser.cjs: an exception names no rule: ${e.rule}`);
  return {
    ...rule,
    name: rule.name,
    comment: `${rule.comment} (temporary exception for ${e.from}: ${e.why})`,
    // A rule that compares with the importing file's module ($1) needs the exception's path to capture it too.
    from: { path: rule.from.path === MODULE ? `^(?=${MODULE.slice(1)})${e.from.slice(1)}` : e.from },
    to: { ...rule.to, pathNot: [...[rule.to.pathNot ?? []].flat(), e.to] },
  };
});

const RULES = [
  {
    name: 'no-circular',
    comment: 'No import circle, type-only imports included: move the shared part into a third file.',
    severity: 'error',
    from: {},
    to: { circular: true },
  },
  {
    name: 'no-http-below-routes',
    comment: 'Services, repos and jobs never see HTTP: what a request means is decided in src/http and the route files.',
    severity: 'error',
    from: { path: ['\\.service\\.ts$', '\\.repo\\.ts$', '^src/jobs/'] },
    to: { path: '^src/http/' },
  },
  {
    name: 'http-only-from-route-files',
    comment: 'Inside a module only the route files and their two helpers reach into src/http; schemas may use the '
      + 'schema building blocks of http/schema.ts.',
    severity: 'error',
    from: { path: '^src/modules/', pathNot: ['\\.routes\\.ts$', '^src/modules/rbac/access\\.ts$', '^src/modules/auth/refresh-endpoint\\.ts$'] },
    to: { path: '^src/http/', pathNot: '^src/http/schema\\.ts$' },
  },
  {
    name: 'core-is-the-bottom',
    comment: 'src/core (clock, errors, paging, the request facts) imports nothing of Gatehouse outside itself.',
    severity: 'error',
    from: { path: '^src/core/' },
    to: { path: '^src/', pathNot: '^src/core/' },
  },
  {
    name: 'security-above-core-only',
    comment: 'src/security receives keys and windows as arguments: it uses src/core, never config, the database or a module.',
    severity: 'error',
    from: { path: '^src/security/' },
    to: { path: '^src/', pathNot: ['^src/core/', '^src/security/'] },
  },
  {
    name: 'config-above-core-and-security-only',
    comment: 'src/config reads the environment and checks the settings (keys with src/security); nothing above it.',
    severity: 'error',
    from: { path: '^src/config/' },
    to: { path: '^src/', pathNot: ['^src/core/', '^src/security/', '^src/config/'] },
  },
  {
    name: 'db-above-config-only',
    comment: 'src/db (schema, dialects, migrations, seed) uses core, security and config, never a module, HTTP or a job.',
    severity: 'error',
    from: { path: '^src/db/' },
    to: { path: '^src/', pathNot: ['^src/core/', '^src/security/', '^src/config/', '^src/db/'] },
  },
  {
    name: 'notifications-below-modules',
    comment: 'src/notifications (the outbox, mail and SMS senders) serves the modules; it never imports one, nor HTTP or a job.',
    severity: 'error',
    from: { path: '^src/notifications/' },
    to: { path: '^src/', pathNot: ['^src/core/', '^src/security/', '^src/config/', '^src/db/', '^src/notifications/'] },
  },
  {
    name: 'no-cross-module-repo',
    comment: 'A module reaches another through its service or a small exported lookup file (users/lookup.ts), never its repo.',
    severity: 'error',
    from: { path: MODULE },
    to: { path: REPO, pathNot: '^src/modules/$1/' },
  },
  {
    name: 'no-repo-in-routes',
    comment: 'Routes validate, call a service and present the result: they never import a repo.',
    severity: 'error',
    from: { path: '\\.routes\\.ts$' },
    to: { path: '\\.repo\\.ts$' },
  },
  {
    name: 'no-db-in-routes',
    comment: 'Routes never import src/db: the database is the services\' and repos\' business.',
    severity: 'error',
    from: { path: '\\.routes\\.ts$' },
    to: { path: '^src/db/' },
  },
];

module.exports = {
  forbidden: [
    ...RULES.map((rule) => ({ ...rule, from: fromExcept(rule.name, rule.from) })),
    ...exceptionRules(RULES),
  ],
  options: {
    // Type-only imports count: a circle of types is still a circle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    // Unit tests beside the code import what they test from anywhere; they are not part of the layering.
    exclude: { path: '\\.test\\.ts$' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
