import { useId, type ReactNode } from 'react';
import { ResponsiveContainer } from 'recharts';

/**
 * One chart: a heading, then the drawing as an image whose name says in words what it shows (the SVG alone says
 * nothing to a screen reader), and optional notes below. The container follows the column's width, down to 390 px.
 */
export function ChartFrame({ title, summary, height = 240, children, notes }: {
  title: string;
  summary: string;
  height?: number;
  children: ReactNode;
  notes?: ReactNode;
}) {
  const id = useId();
  return (
    <section className="chart" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <div className="chart-area" role="img" aria-label={summary}>
        <ResponsiveContainer width="100%" height={height} initialDimension={{ width: 320, height }}>
          {children}
        </ResponsiveContainer>
      </div>
      {notes}
    </section>
  );
}
