// Dredd loads Node.js hooks only from a file, handing it its `hooks` object. This file hands that
// object to the run that started Dredd (stages/dredd.ts), which keeps every hook, so the hooks
// live in one place, with the plan they follow.
const hooks = require('hooks');

hooks.configuration.custom.messagingConformance.attach(hooks);
