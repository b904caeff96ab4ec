declare module 'parse-dashboard' {
  import type { RequestHandler } from 'express';
  const ParseDashboard: new (config: object, options?: object) => RequestHandler;
  export default ParseDashboard;
}
