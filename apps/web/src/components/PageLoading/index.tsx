/**
 * The loading state while a page's chunk arrives. Drawn with CSS, like antd's large Spin, rather than with Spin
 * itself: it is on every first load, and Spin would add its code to the login page's budget.
 */
export default function PageLoading({ fullscreen = false }: { fullscreen?: boolean }) {
  return (
    <div className={fullscreen ? 'coalx-page-loading coalx-page-loading-fullscreen' : 'coalx-page-loading'}>
      <span className="coalx-spinner" role="status" aria-label="加载中">
        <i />
        <i />
        <i />
        <i />
      </span>
    </div>
  );
}
