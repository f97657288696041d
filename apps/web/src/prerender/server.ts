/**
 * The web app's server renderer (built by vite.server.config.ts into dist-server/server.js,
 * imported by the API): the sign-in screen (decision 0026) and the signed-in first screens
 * (decision 0046).
 */
export { renderSignIn } from './sign-in';
export { renderSignedIn } from './signed-in';
