import { ruleTester } from '../helpers/rule-tester.js';

const mutates = (route: string) => `${route} mutates a deployment, which the contract makes immutable`;

ruleTester('immutable-resource-mutation', {
  valid: [
    { dir: 'valid/rollback-creates-a-new-deployment', name: 'POST …/rollback creates a new deployment' },
    { dir: 'valid/other-resources-and-prefixes', name: "PATCH on sites, PUT on '/api/deployments-settings' (another segment), PUT on an internal path" },
  ],
  invalid: [
    { dir: 'invalid/patch-on-a-deployment', name: 'PATCH /api/deployments/:id', errors: [{ line: 8, message: mutates('PATCH /api/deployments/:id') }] },
    { dir: 'invalid/put-in-a-route-chain', name: 'router.route(path).get(…).put(…) mounted at /api/deployments', errors: [{ line: 13, column: 4, message: mutates('PUT /api/deployments/:deploymentId') }] },
    { dir: 'invalid/nested-router', name: 'a PATCH two routers down', errors: [{ line: 8, message: mutates('PATCH /api/deployments/:id/env/') }] },
    {
      dir: 'invalid/generic-resource-route',
      name: 'PATCH /api/:kind/:id serves PATCH /api/deployments/:id too (a route that may be under the resource counts)',
      errors: [{ line: 11, message: mutates('PATCH /api/:kind/:id') }],
    },
  ],
});
