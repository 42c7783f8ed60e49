import type { PageProps } from '.';

export function Organizations(_props: PageProps) {
  return <h1>Organizations</h1>;
}
