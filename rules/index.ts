import type { RuleModule } from '../src/rule.js';
import { rule as contractAuthMismatch } from './contract-auth-mismatch.js';
import { rule as contractRouteDrift } from './contract-route-drift.js';
import { rule as contractRouteMissing } from './contract-route-missing.js';
import { rule as excludedFamilyLeak } from './excluded-family-leak.js';
import { rule as immutableResourceMutation } from './immutable-resource-mutation.js';
import { rule as insecureSessionCookie } from './insecure-session-cookie.js';
import { rule as missingAuthGuard } from './missing-auth-guard.js';
import { rule as missingCsrfGuard } from './missing-csrf-guard.js';
import { rule as middlewareOnlyGuard } from './middleware-only-guard.js';
import { rule as missingTenantGuard } from './missing-tenant-guard.js';
import { rule as parseError } from './parse-error.js';
import { rule as providerCredentialExposure } from './provider-credential-exposure.js';
import { rule as sessionTokenExposure } from './session-token-exposure.js';
import { rule as uncontractedRoute } from './uncontracted-route.js';
import { rule as unresolvedRoute } from './unresolved-route.js';
import { rule as unusedSuppression } from './unused-suppression.js';

/** Every rule, in the order of SPEC section 4. `unused-suppression` runs last, after suppressions are applied. */
export const RULES: RuleModule[] = [
  contractRouteMissing,
  contractRouteDrift,
  contractAuthMismatch,
  excludedFamilyLeak,
  missingAuthGuard,
  missingTenantGuard,
  missingCsrfGuard,
  immutableResourceMutation,
  providerCredentialExposure,
  insecureSessionCookie,
  sessionTokenExposure,
  middlewareOnlyGuard,
  unresolvedRoute,
  uncontractedRoute,
  parseError,
  unusedSuppression,
];
