import type { Adapter } from './adapter.js';
import { expressAdapter } from './express/index.js';

export const ADAPTERS: Adapter[] = [expressAdapter];
