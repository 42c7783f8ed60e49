import type { PageProps } from '.';
import { UserDetail } from './users/UserDetail';
import { UserList } from './users/UserList';
import './users/users.css';

/** `#/users` lists accounts; `#/users/<id>` is one account's detail. */
export function Users({ route, me }: PageProps) {
  const id = route.parts[1];
  if (id !== undefined && /^\d+$/.test(id)) return <UserDetail id={Number(id)} me={me} />;
  return <UserList route={route} />;
}
