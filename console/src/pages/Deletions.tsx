import type { PageProps } from '.';

export function Deletions(_props: PageProps) {
  return <h1>Deletions</h1>;
}
