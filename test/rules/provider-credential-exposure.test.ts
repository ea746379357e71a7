import { ruleTester } from '../helpers/rule-tester.js';

ruleTester('provider-credential-exposure', {
  valid: [
    { dir: 'valid/safe-summary', name: 'database metadata without credentials' },
    { dir: 'valid/not-database-metadata', name: 'a token returned by a route outside /api/databases/' },
  ],
  invalid: [
    {
      dir: 'invalid/connection-string-in-the-list',
      name: 'a connection string built in the list mapping',
      errors: [{ line: 13, column: 7, message: 'GET /api/databases/ returns credential-like field connectionString in database metadata' }],
    },
    {
      dir: 'invalid/handler-in-a-controller',
      name: 'reported in the controller file that builds the response, naming every field',
      errors: [
        {
          file: 'controllers/databases.ts',
          line: 9,
          column: 5,
          message: 'GET /api/databases/:id returns credential-like fields credentials, password in database metadata',
        },
      ],
    },
    {
      dir: 'invalid/wrapped-by-an-async-handler',
      name: 'a handler an in-code async wrapper hands the request to (`asyncHandler(listDatabases)`): reported where it answers',
      errors: [{ file: 'controllers/databases.ts', line: 11, column: 7, message: 'GET /api/databases/ returns credential-like field connectionString in database metadata' }],
    },
    {
      dir: 'invalid/through-a-local-variable',
      name: 'an object built in a local variable, then sent',
      errors: [{ line: 9, column: 29, message: 'GET /api/databases/:id/connect returns credential-like field dsn in database metadata' }],
    },
    {
      dir: 'invalid/generic-resource-route',
      name: 'GET /api/:kind/:id serves GET /api/databases/:id too (a route that may be under the resource counts)',
      errors: [{ line: 10, column: 44, message: 'GET /api/:kind/:id returns credential-like field connectionString in database metadata' }],
    },
  ],
});
