import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Built into console/dist by `npm run build` and served by Gatehouse at /console/ (src/modules/console/console.routes.ts).
// Every asset gets a content hash in its name, so the server can cache them for a year; no inline script is emitted,
// so the page runs under a Content-Security-Policy without 'unsafe-inline'.
export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    // Small images would otherwise be inlined as data: URLs; the policy allows images from the origin only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
