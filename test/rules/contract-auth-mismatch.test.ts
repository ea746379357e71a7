import { ruleTester } from '../helpers/rule-tester.js';

ruleTester('contract-auth-mismatch', {
  valid: [
    { dir: 'valid/readiness-before-the-guard', name: 'readiness mounted before app.use(requireSession)' },
    { dir: 'valid/session-middleware-is-not-a-guard', name: 'express-session and passport.session() do not guard' },
  ],
  invalid: [
    {
      dir: 'invalid/global-guard-first',
      name: 'a global guard registered before the readiness route',
      errors: [{ line: 7, message: 'GET /api/health/ready is public in the contract but is guarded by requireSession' }],
    },
    {
      dir: 'invalid/tenant-middleware-on-the-prefix',
      name: "a tenant middleware on '/api' covers readiness too",
      errors: [{ line: 7, message: 'GET /api/health/ready is public in the contract but is guarded by tenantContext' }],
    },
    {
      dir: 'invalid/session-route-listed-public',
      name: 'a session route of the contract listed in publicRoutes',
      errors: [{ line: 6, message: 'GET /api/sites/ needs a session in the contract but is listed in publicRoutes' }],
    },
  ],
});
