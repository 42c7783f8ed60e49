import type { PageProps } from '.';
import { DeletionDetail } from './deletions/DeletionDetail';
import { DeletionList } from './deletions/DeletionList';
import './deletions/deletions.css';

/** `#/deletions`: every account deletion request; `#/deletions/<id>`: one, and processing it. */
export function Deletions({ route }: PageProps) {
  const [, id] = route.parts;
  if (id) return <div className="deletions-page"><DeletionDetail key={id} id={id} /></div>;
  return (
    <div className="deletions-page">
      <h1>Deletion requests</h1>
      <DeletionList />
    </div>
  );
}
