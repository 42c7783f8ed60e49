import type { PageProps } from '.';

export function Dashboard(_props: PageProps) {
  return <h1>Dashboard</h1>;
}
