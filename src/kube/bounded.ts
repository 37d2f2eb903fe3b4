// Moved to core/bounded.ts (several contexts are read bounded too); kept so kube's imports of it stay.
export { eachLimited, mapBounded } from '../core/bounded.ts';
