/**
 * The plan and subscription lists' one layout: a table on desktop, a list of cards on phones
 * (the spec's lists), each row or card marked with `testId`. Pages give the columns and the card.
 */
import type { ReactNode } from 'react';
import './plans.css';

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  className?: string;
}

export function TableOrCards<Row>({
  rows,
  rowKey,
  testId,
  mobile,
  columns,
  card,
}: {
  rows: Row[];
  rowKey: (row: Row) => string | number;
  testId: string;
  mobile: boolean;
  columns: Column<Row>[];
  card: (row: Row) => ReactNode;
}) {
  if (mobile)
    return (
      <ul className="plans-cards">
        {rows.map((row) => (
          <li key={rowKey(row)} className="plans-item" data-testid={testId}>
            {card(row)}
          </li>
        ))}
      </ul>
    );
  return (
    <div className="plans-table-scroll">
      <table className="plans-table">
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} data-testid={testId}>
              {columns.map((column) => (
                <td key={column.header} className={column.className}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
