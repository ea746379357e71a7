import { ruleTester } from '../helpers/rule-tester.js';

const BUILTIN = 'builtin:browser-control-plane@1';
const notServed = (route: string) => `contract route ${route} is not served by any analysed app`;

ruleTester('contract-route-missing', {
  valid: [
    { dir: 'valid/all-five-exact', name: 'all five contract routes, exactly as the table writes them' },
    { dir: 'valid/served-under-express-matching', name: "non-strict '/sites' serves '/sites/', ALL serves GET, a strict router's '/' at its mount serves both forms" },
    {
      dir: 'valid/literal-row-before-parameter-row',
      name: "a route matching several contract rows is the closest one's: '/api/sites/count' is the row written so, not the ':siteId' row after it (Overseerr's /request/count)",
    },
  ],
  invalid: [
    {
      dir: 'invalid/only-readiness',
      name: 'contract-level findings point at the contract route (builtin table row)',
      errors: [
        { file: BUILTIN, line: 2, message: notServed('GET /api/auth/me/') },
        { file: BUILTIN, line: 3, message: notServed('GET /api/sites/') },
        { file: BUILTIN, line: 4, message: notServed('GET /api/deployments/') },
        { file: BUILTIN, line: 5, message: notServed('GET /api/databases/') },
      ],
    },
    {
      dir: 'invalid/mounted-under-another-prefix',
      name: "mounted at '/api/site': another path, not a drift",
      errors: [{ file: BUILTIN, line: 3, message: notServed('GET /api/sites/') }],
    },
    {
      dir: 'invalid/user-contract',
      name: 'a user contract (config "contract"): the finding points at its line',
      errors: [{ file: 'contract.json', line: 6, message: notServed('GET /api/projects/') }],
    },
  ],
});
