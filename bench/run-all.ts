import { apiLoad } from './api-load';
import { bundleReport } from './bundle';
import { dashboardLoad } from './dashboard-load';
import { growthBench } from './growth';
import { lanternReport } from './lantern';
import { learnersLoad } from './learners-load';
import { lighthouseReport } from './lighthouse';
import { nextPaint } from './next-paint';
import { playerLoad } from './player-load';
import { processesLoad } from './processes-load';
import { startReport } from './start';
import { printTargets } from './targets';

// `npm run bench [-- api|bundle|lighthouse|lantern|player|next|start|dashboard|growth|load|processes]`: every measurement by default.
const which = new Set(process.argv.slice(2));
const all = which.size === 0;
if (all || which.has('bundle')) await bundleReport();
if (all || which.has('lighthouse')) await lighthouseReport();
if (all || which.has('lantern')) await lanternReport();
if (all || which.has('api')) await apiLoad();
if (all || which.has('next')) await nextPaint();
if (all || which.has('player')) await playerLoad();
if (all || which.has('start')) await startReport();
if (all || which.has('dashboard')) await dashboardLoad();
if (all || which.has('growth')) await growthBench();
if (all || which.has('load')) await learnersLoad();
if (all || which.has('processes')) await processesLoad();
printTargets();
