/**
 * Whether the slow simulations run at full size (`npm run test:slow` sets RECOLLECT_SLOW=full).
 * The default suite runs them small, so that `npm test` stays quick; the full runs try many more
 * random inputs against the same assertions.
 */
export const SLOW = process.env.RECOLLECT_SLOW === "full";
