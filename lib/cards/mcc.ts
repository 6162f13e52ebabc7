// Merchant category codes (ISO 18245) as staff read them. Card networks send only the four
// digits; the console names the category beside them. Common codes by name, the rest by the
// standard's range, so every code reads as something and none is invented.
const NAMED: Record<string, string> = {
  '4111': 'Commuter transport',
  '4121': 'Taxis and rideshares',
  '4215': 'Courier services',
  '4511': 'Airlines',
  '4722': 'Travel agencies',
  '4814': 'Telecommunication services',
  '4829': 'Money transfers',
  '4900': 'Utilities',
  '5200': 'Home supply warehouses',
  '5251': 'Hardware stores',
  '5300': 'Wholesale clubs',
  '5310': 'Discount stores',
  '5311': 'Department stores',
  '5411': 'Grocery stores and supermarkets',
  '5441': 'Candy and confectionery stores',
  '5462': 'Bakeries',
  '5499': 'Food stores',
  '5541': 'Service stations',
  '5542': 'Fuel dispensers',
  '5651': 'Clothing stores',
  '5661': 'Shoe stores',
  '5712': 'Furniture stores',
  '5722': 'Household appliance stores',
  '5732': 'Electronics stores',
  '5734': 'Computer software stores',
  '5812': 'Restaurants',
  '5813': 'Bars',
  '5814': 'Fast food and coffee shops',
  '5815': 'Digital media',
  '5816': 'Digital games',
  '5817': 'Digital applications',
  '5818': 'Digital goods',
  '5912': 'Pharmacies',
  '5921': 'Liquor stores',
  '5941': 'Sporting goods stores',
  '5942': 'Book stores',
  '5944': 'Jewelry stores',
  '5945': 'Toy and game shops',
  '5977': 'Cosmetic stores',
  '5992': 'Florists',
  '5995': 'Pet shops',
  '5999': 'Specialty retail',
  '6011': 'ATM cash withdrawal',
  '6051': 'Money orders, foreign currency and crypto',
  '6540': 'Stored value loads',
  '7011': 'Hotels and lodging',
  '7230': 'Beauty and barber shops',
  '7372': 'Software and IT services',
  '7399': 'Business services',
  '7523': 'Parking',
  '7832': 'Cinemas',
  '7995': 'Gambling',
  '8011': 'Doctors',
  '8021': 'Dentists',
  '8062': 'Hospitals',
  '8220': 'Colleges and universities',
  '8398': 'Charities',
  '9311': 'Tax payments',
  '9399': 'Government services',
};

// The standard's blocks, lowest code first: [first code of the block, its name].
const RANGES: [number, string][] = [
  [1, 'Agricultural services'],
  [1500, 'Contracted services'],
  [3000, 'Airlines'],
  [3300, 'Car rental'],
  [3500, 'Lodging'],
  [4000, 'Transportation'],
  [4800, 'Utilities and telecommunication'],
  [5000, 'Retail'],
  [5600, 'Clothing'],
  [5700, 'Retail'],
  [7300, 'Business services'],
  [8000, 'Professional services'],
  [9000, 'Government services'],
];

/** The category's name for a merchant category code, or null for a missing or malformed code. */
export function mccCategory(mcc: string | null | undefined): string | null {
  if (!mcc || !/^\d{4}$/.test(mcc)) return null;
  if (NAMED[mcc]) return NAMED[mcc];
  const n = Number(mcc);
  if (n === 0) return null;
  let name: string | null = null;
  for (const [from, label] of RANGES) if (n >= from) name = label;
  return name;
}
