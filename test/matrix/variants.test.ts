// The legal-choices matrix (test/conformance/legal-choices.ts) over each variant alone, in `npm run test:packages`:
// one answer at a time shows that no open point's answer passes only because another hides it.
import { variants } from '../independent/variants.ts';
import { legalChoices } from '../conformance/legal-choices.ts';

legalChoices(variants);
