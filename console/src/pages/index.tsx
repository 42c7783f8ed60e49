import { lazy, type ComponentType } from 'react';
import type { Me } from '../App';
import { ErrorMessage } from '../ErrorMessage';
import type { Route } from '../router';

export interface PageProps {
  route: Route;
  me: Me;
}

/**
 * A page whose module is fetched the first time it is shown: each page is a chunk of its own (the bundler splits at
 * the dynamic `import()`), so the first load fetches the shell and the page the URL names, and no other. A chunk that
 * cannot be fetched (the server was updated since this tab loaded the shell, or cannot be reached) is said in the
 * page's place.
 */
const page = <M,>(load: () => Promise<M>, name: keyof M) => lazy(async () => {
  try {
    return { default: (await load())[name] as ComponentType<PageProps> };
  } catch (error) {
    const unloaded = new Error(`This page could not be loaded (${error instanceof Error ? error.message : String(error)}): reload the console.`);
    return { default: () => <ErrorMessage error={unloaded} /> };
  }
});

/** Every page of the console, in the navigation's order: `#/<path>` opens it, and its sub-paths are its own. */
export const PAGES: ReadonlyArray<{ path: string; title: string; component: ComponentType<PageProps> }> = [
  { path: '', title: 'Dashboard', component: page(() => import('./Dashboard'), 'Dashboard') },
  { path: 'users', title: 'Users', component: page(() => import('./Users'), 'Users') },
  { path: 'roles', title: 'Roles and permissions', component: page(() => import('./Roles'), 'Roles') },
  { path: 'applications', title: 'Applications', component: page(() => import('./Applications'), 'Applications') },
  { path: 'organizations', title: 'Organizations', component: page(() => import('./Organizations'), 'Organizations') },
  { path: 'agents', title: 'Agents', component: page(() => import('./Agents'), 'Agents') },
  { path: 'deletions', title: 'Deletion requests', component: page(() => import('./Deletions'), 'Deletions') },
  { path: 'audit', title: 'Audit log', component: page(() => import('./Audit'), 'Audit') },
  { path: 'login-attempts', title: 'Login attempts', component: page(() => import('./LoginAttempts'), 'LoginAttempts') },
  { path: 'webhooks', title: 'Webhooks', component: page(() => import('./Webhooks'), 'Webhooks') },
];
