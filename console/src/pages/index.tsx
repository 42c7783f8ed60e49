import type { ComponentType } from 'react';
import type { Me } from '../App';
import type { Route } from '../router';
import { Agents } from './Agents';
import { Applications } from './Applications';
import { Audit } from './Audit';
import { Dashboard } from './Dashboard';
import { Deletions } from './Deletions';
import { LoginAttempts } from './LoginAttempts';
import { Organizations } from './Organizations';
import { Roles } from './Roles';
import { Users } from './Users';
import { Webhooks } from './Webhooks';

export interface PageProps {
  route: Route;
  me: Me;
}

/** Every page of the console, in the navigation's order: `#/<path>` opens it, and its sub-paths are its own. */
export const PAGES: ReadonlyArray<{ path: string; title: string; component: ComponentType<PageProps> }> = [
  { path: '', title: 'Dashboard', component: Dashboard },
  { path: 'users', title: 'Users', component: Users },
  { path: 'roles', title: 'Roles and permissions', component: Roles },
  { path: 'applications', title: 'Applications', component: Applications },
  { path: 'organizations', title: 'Organizations', component: Organizations },
  { path: 'agents', title: 'Agents', component: Agents },
  { path: 'deletions', title: 'Deletion requests', component: Deletions },
  { path: 'audit', title: 'Audit log', component: Audit },
  { path: 'login-attempts', title: 'Login attempts', component: LoginAttempts },
  { path: 'webhooks', title: 'Webhooks', component: Webhooks },
];
