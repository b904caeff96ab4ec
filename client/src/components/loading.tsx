/** Shown while a screen's code arrives. */
export function RouteLoading() {
  return (
    <div className="route-loading" role="status" aria-label="Loading page">
      <div className="route-loading__spinner" />
    </div>
  );
}
