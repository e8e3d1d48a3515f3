import CalculateOutlinedIcon from '@mui/icons-material/CalculateOutlined';
import { lazyScreen } from '../common/lazyScreen';

// The simulator is the resource's page: its saved scenarios are listed on it, under the simulation.
const PricingSimulatorPage = lazyScreen(() => import('./PricingSimulatorPage'), 'default');

export default {
  list: PricingSimulatorPage,
  icon: CalculateOutlinedIcon,
  recordRepresentation: (scenario: { name: string }) => scenario.name,
};
