import { ruleTester } from '../helpers/rule-tester.js';

ruleTester('uncontracted-route', {
  valid: [{ dir: 'valid/contract-public-and-excluded-routes', name: 'contract routes, routes listed in publicRoutes and excluded routes are not reported' }],
  invalid: [
    {
      dir: 'invalid/browser-routes-outside-the-contract',
      name: 'another method on a contract path, and a path outside the contract (info)',
      errors: [
        { line: 12, message: 'POST /api/sites/ is on the browser surface but not in the contract' },
        { line: 15, message: 'GET /api/billing/invoices is on the browser surface but not in the contract' },
      ],
    },
  ],
});
