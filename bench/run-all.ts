import { apiLoad } from './api-load';
import { bundleReport } from './bundle';

// `npm run bench [-- api|bundle]`: every measurement by default.
const which = new Set(process.argv.slice(2));
const all = which.size === 0;
if (all || which.has('bundle')) await bundleReport();
if (all || which.has('api')) await apiLoad();
