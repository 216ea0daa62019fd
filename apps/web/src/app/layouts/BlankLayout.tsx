import { Outlet } from 'react-router';

export default function BlankLayout() {
  return (
    <div className="coalx-blank-layout">
      <Outlet />
    </div>
  );
}
