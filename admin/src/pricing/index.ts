import { lazy } from 'react';
import CalculateOutlinedIcon from '@mui/icons-material/CalculateOutlined';

// The simulator is the resource's page: its saved scenarios are listed on it, under the simulation.
const PricingSimulatorPage = lazy(() => import('./PricingSimulatorPage'));

export default {
  list: PricingSimulatorPage,
  icon: CalculateOutlinedIcon,
  recordRepresentation: (scenario: { name: string }) => scenario.name,
};
