import { Outlet } from 'react-router';
import { DataProviders } from './DataProviders.js';

/** The layout of every route except home: the same page area, with data fetching available. */
export function DataLayout() {
  return (
    <DataProviders>
      <Outlet />
    </DataProviders>
  );
}
