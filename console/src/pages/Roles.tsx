import type { PageProps } from '.';

export function Roles(_props: PageProps) {
  return <h1>Roles</h1>;
}
