import type { PageProps } from '.';

export function Users(_props: PageProps) {
  return <h1>Users</h1>;
}
