import { VEHICLE_TYPES, idCardCheckChar, type DriverRegisterInput, type VehicleType } from '@coalx/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema/index';
import type { Actor } from '../lib/actor';
import type { Clock } from '../lib/clock';
import { auditDriver, registerDriver } from '../modules/driver/driver.service';
import { saveUpload } from '../modules/files/files.service';
import type { FileStorage } from '../modules/files/storage';
import { drivingLicencePng, idCardPng, vehicleLicencePng, type DemoDriverCard } from './driver-photos';

/**
 * The demo enterprises' drivers and trucks: 晋北煤业 (seller01) runs its own fleet for 到厂价 deliveries, four
 * approved and one waiting for the trading centre; 华东电力 (buyer01) has three approved for 出厂价 pick-ups. Each is
 * registered and audited through the driver module, with the three photos uploaded as the enterprise's private
 * images, so the 司机审核 queue and the 司机车辆 list look as they would after a week of use.
 */

interface DemoDriver {
  name: string;
  /** region code and birth date; the sequence and check character are added */
  idPrefix: string;
  sequence: string;
  mobile: string;
  plateNo: string;
  vehicleType: VehicleType;
  ratedLoadKg: number;
  address: string;
  approve: boolean;
}

const SELLER_DRIVERS: DemoDriver[] = [
  { name: '张志强', idPrefix: '14060219830412', sequence: '351', mobile: '13835011201', plateNo: '晋F58632', vehicleType: 'heavy_semi_trailer', ratedLoadKg: 49_000, address: '山西省朔州市朔城区开发路街道12号', approve: true },
  { name: '李永红', idPrefix: '14062419790823', sequence: '173', mobile: '13935022318', plateNo: '晋F7K261', vehicleType: 'heavy_semi_trailer', ratedLoadKg: 49_000, address: '山西省朔州市怀仁县应大路36号', approve: true },
  { name: '赵保平', idPrefix: '14060219880105', sequence: '219', mobile: '15835033472', plateNo: '晋FD31858', vehicleType: 'heavy_dump', ratedLoadKg: 31_000, address: '山西省朔州市朔城区南城街道5号院', approve: true },
  { name: '刘海军', idPrefix: '14020219861130', sequence: '455', mobile: '18635044590', plateNo: '晋B62217', vehicleType: 'heavy_flatbed', ratedLoadKg: 40_000, address: '山西省大同市平城区新建路18号', approve: true },
  { name: '孙建华', idPrefix: '14060219920716', sequence: '333', mobile: '13703495567', plateNo: '晋F36920', vehicleType: 'heavy_semi_trailer', ratedLoadKg: 49_000, address: '山西省朔州市朔城区北城街道22号', approve: false },
];

const BUYER_DRIVERS: DemoDriver[] = [
  { name: '周国庆', idPrefix: '32011319811001', sequence: '271', mobile: '13951622380', plateNo: '苏A8H592', vehicleType: 'heavy_semi_trailer', ratedLoadKg: 49_000, address: '江苏省南京市栖霞区燕子矶街道8号', approve: true },
  { name: '吴长江', idPrefix: '32020519770314', sequence: '195', mobile: '13813677105', plateNo: '苏B25673', vehicleType: 'heavy_box', ratedLoadKg: 35_000, address: '江苏省无锡市锡山区东亭街道16号', approve: true },
  { name: '郑天明', idPrefix: '32030319900528', sequence: '417', mobile: '18052148836', plateNo: '苏C61385D', vehicleType: 'heavy_dump', ratedLoadKg: 31_000, address: '江苏省徐州市云龙区彭城路街道3号', approve: true },
];

async function demoActor(db: Db, username: string): Promise<Actor> {
  const [user] = await db.select().from(users).where(eq(users.username, username)).limit(1);
  if (!user) throw new Error(`demo drivers: no user ${username}`);
  return { userId: user.id, username: user.username, role: username === 'operator' ? 'operator' : 'trader', enterpriseId: user.enterpriseId, sessionId: 0 };
}

/** The ID number of a demo driver: its prefix, sequence and the GB 11643 check character. */
export function demoIdCardNo(d: Pick<DemoDriver, 'idPrefix' | 'sequence'>): string {
  const first17 = d.idPrefix + d.sequence;
  return first17 + idCardCheckChar(first17);
}

/**
 * Registers the demo drivers of seller01's and buyer01's enterprises through the driver module and has `operator`
 * approve the ones meant to be approved. Call after the demo enterprises and users exist (after the main demo
 * transaction commits: the module runs its own transactions). Returns how many it registered.
 */
export async function seedDemoDrivers(db: Db, storage: FileStorage, now: Date): Promise<number> {
  const clock: Clock = { now: () => now };
  const operator = await demoActor(db, 'operator');
  let registered = 0;
  for (const [username, ownerName, list] of [
    ['seller01', '晋北煤业集团有限公司', SELLER_DRIVERS],
    ['buyer01', '华东电力燃料有限公司', BUYER_DRIVERS],
  ] as const) {
    const actor = await demoActor(db, username);
    for (const d of list) {
      const idCardNo = demoIdCardNo(d);
      const cardData: DemoDriverCard = {
        name: d.name,
        idCardNo,
        address: d.address,
        licenceNo: idCardNo,
        plateNo: d.plateNo,
        vehicleTypeText: VEHICLE_TYPES[d.vehicleType],
        ratedLoadKg: d.ratedLoadKg,
        ownerName,
      };
      const upload = async (filename: string, data: Buffer) => (await saveUpload(db, storage, clock, actor, { filename, data, visibility: 'private' })).url;
      const input: DriverRegisterInput = {
        name: d.name,
        idCardNo,
        mobile: d.mobile,
        licenceNo: idCardNo,
        plateNo: d.plateNo,
        vehicleType: d.vehicleType,
        ratedLoadKg: d.ratedLoadKg,
        idCardPhoto: await upload(`${d.name}-身份证.png`, idCardPng(cardData)),
        drivingLicencePhoto: await upload(`${d.name}-驾驶证.png`, drivingLicencePng(cardData)),
        vehicleLicencePhoto: await upload(`${d.name}-行驶证.png`, vehicleLicencePng(cardData)),
      };
      const driver = await registerDriver(db, clock, actor, input);
      if (d.approve) await auditDriver(db, clock, operator, driver.id, { approve: true });
      registered += 1;
    }
  }
  return registered;
}
