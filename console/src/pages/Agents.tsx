import type { PageProps } from '.';

export function Agents(_props: PageProps) {
  return <h1>Agents</h1>;
}
