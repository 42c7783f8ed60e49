import type { PageProps } from '.';

export function Audit(_props: PageProps) {
  return <h1>Audit</h1>;
}
