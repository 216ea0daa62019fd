import { z } from 'zod';
import { pageSchema } from '../api';
import { safeString } from '../text';
import { idCardProblem, normalizePlate, plateProblem } from './identity';
import { DriverStates } from './states';

/** Drivers and vehicles (运输信息 → 司机车辆, 司机审核), DESIGN.md §8. Rated load in integer kg on the wire. */
export const DRIVER_STATUS = DriverStates.states;
export type DriverStatus = keyof typeof DRIVER_STATUS;
const DRIVER_STATUS_KEYS = Object.keys(DRIVER_STATUS) as [DriverStatus, ...DriverStatus[]];

/** What a coal truck is, as the vehicle licence (行驶证) names it. */
export const VEHICLE_TYPES = {
  heavy_semi_trailer: '重型半挂牵引车',
  heavy_dump: '重型自卸货车',
  heavy_box: '重型厢式货车',
  heavy_flatbed: '重型平板货车',
  medium: '中型货车',
} as const;
export type VehicleType = keyof typeof VEHICLE_TYPES;
const VEHICLE_TYPE_KEYS = Object.keys(VEHICLE_TYPES) as [VehicleType, ...VehicleType[]];

/** The three photos an audit looks at, each a private image the registering enterprise uploaded. */
export const DRIVER_PHOTOS = {
  idCardPhoto: '身份证照片',
  drivingLicencePhoto: '驾驶证照片',
  vehicleLicencePhoto: '行驶证照片',
} as const;
export type DriverPhotoKey = keyof typeof DRIVER_PHOTOS;

/** Rated load (核定载质量) of a truck: 1 t to 100 t. */
export const RATED_LOAD_MIN_KG = 1_000;
export const RATED_LOAD_MAX_KG = 100_000;
const RATED_LOAD_TEXT = '核定载重须在 1 至 100 吨之间';

const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;

export const DriverNameSchema = safeString({ error: '请输入司机姓名' })
  .trim()
  .min(1, '请输入司机姓名')
  .min(2, '司机姓名至少 2 个字')
  .max(20, '司机姓名不超过 20 个字')
  .regex(NO_CONTROL, '司机姓名不能包含换行或控制字符');

/** 居民身份证号: lower-case x accepted, stored as X; check digit and birth date verified. */
export const IdCardNoSchema = safeString({ error: '请输入身份证号码' })
  .trim()
  .min(1, '请输入身份证号码')
  .max(30, '身份证号码须为 18 位')
  .toUpperCase()
  .superRefine((value, ctx) => {
    const problem = idCardProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const DriverMobileSchema = safeString({ error: '请输入司机手机号码' }).trim().regex(/^1[3-9]\d{9}$/, '请输入正确的 11 位手机号码');

/** 驾驶证号 (档案编号 or the ID number): 12 to 18 letters and digits. */
export const LicenceNoSchema = safeString({ error: '请输入驾驶证号' })
  .trim()
  .min(1, '请输入驾驶证号')
  .max(30, '驾驶证号须为 12-18 位字母或数字')
  .toUpperCase()
  .regex(/^[0-9A-Z]{12,18}$/, '驾驶证号须为 12-18 位字母或数字');

/** 车牌号: 7 characters, 8 for new-energy vehicles; stored upper case. */
export const PlateNoSchema = safeString({ error: '请输入车牌号' })
  .trim()
  .min(1, '请输入车牌号')
  .max(20, '车牌号须为 7 位（新能源车 8 位），如 晋B12345')
  .overwrite(normalizePlate)
  .superRefine((value, ctx) => {
    const problem = plateProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const VehicleTypeSchema = z.enum(VEHICLE_TYPE_KEYS, { error: '请选择车辆类型' });

// range before integer (zod checks .int() first otherwise, and 1e20 would be "not an integer")
export const RatedLoadKgSchema = z
  .number({ error: '请输入核定载重' })
  .min(RATED_LOAD_MIN_KG, RATED_LOAD_TEXT)
  .max(RATED_LOAD_MAX_KG, RATED_LOAD_TEXT)
  .int('核定载重须为整数千克');

/** An uploaded image's key (see the files module): YYYY/MM/DD/<uuid>.jpg|png. */
const photoKey = (label: string) =>
  safeString({ error: `请上传${label}` })
    .min(1, `请上传${label}`)
    .regex(/^\d{4}\/\d{2}\/\d{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(jpg|png)$/, `${label}须为上传的 JPG 或 PNG 图片，请重新上传`);

const driverFields = {
  name: DriverNameSchema,
  idCardNo: IdCardNoSchema,
  mobile: DriverMobileSchema,
  licenceNo: LicenceNoSchema,
  plateNo: PlateNoSchema,
  vehicleType: VehicleTypeSchema,
  ratedLoadKg: RatedLoadKgSchema,
  idCardPhoto: photoKey(DRIVER_PHOTOS.idCardPhoto),
  drivingLicencePhoto: photoKey(DRIVER_PHOTOS.drivingLicencePhoto),
  vehicleLicencePhoto: photoKey(DRIVER_PHOTOS.vehicleLicencePhoto),
};

/** 新增司机: a driver and his truck, sent to the trading centre for audit. */
export const DriverRegisterSchema = z.strictObject(driverFields);
export type DriverRegisterInput = z.infer<typeof DriverRegisterSchema>;
/** 编辑: every field again; a change to an approved or rejected driver sends him back for audit. */
export const DriverEditSchema = z.strictObject(driverFields);
export type DriverEditInput = z.infer<typeof DriverEditSchema>;

/** 驳回: the reason the enterprise reads beside the driver. */
export const DriverRejectSchema = z.strictObject({
  reason: safeString({ error: '请填写驳回原因' })
    .trim()
    .min(1, '请填写驳回原因')
    .min(2, '驳回原因至少 2 个字')
    .max(200, '驳回原因不超过 200 个字'),
});
export type DriverRejectInput = z.infer<typeof DriverRejectSchema>;

/** The list: an enterprise's own drivers, or the audit queue of the trading centre (pending first). */
export const DriverQuerySchema = z.object({
  pageNo: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  status: z.enum(DRIVER_STATUS_KEYS, { error: '司机状态不正确' }).optional(),
  name: safeString().trim().max(20, '司机姓名不超过 20 个字').optional(),
  plateNo: safeString().trim().max(20, '车牌号不超过 20 个字').optional(),
  /** the operator's filter by the registering enterprise's name */
  enterpriseName: safeString().trim().max(60, '企业名称不超过 60 个字').optional(),
});
export type DriverQuery = z.infer<typeof DriverQuerySchema>;

export const DriverSummarySchema = z.object({
  id: z.number().int(),
  enterpriseId: z.number().int(),
  enterpriseName: z.string(),
  name: z.string(),
  /** whole for the registering enterprise and the trading centre, masked (1401**********1234) for anyone else */
  idCardNo: z.string(),
  idCardMasked: z.boolean(),
  mobile: z.string(),
  licenceNo: z.string(),
  plateNo: z.string(),
  vehicleType: z.string(),
  vehicleTypeText: z.string(),
  ratedLoadKg: z.number().int(),
  status: z.string(),
  statusText: z.string(),
  /** the reason of the last rejection */
  auditNote: z.string(),
  auditedAt: z.string().nullable(),
  /** yyyy-MM-dd HH:mm:ss, Asia/Shanghai */
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DriverSummary = z.infer<typeof DriverSummarySchema>;
export const DriverPageSchema = pageSchema(DriverSummarySchema);
export type DriverPage = z.infer<typeof DriverPageSchema>;

export const DriverPhotoSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  kindText: z.string(),
  /** path under {api}/api/common/static/ (private: read with the token) */
  url: z.string(),
  name: z.string(),
  contentType: z.string(),
});
export type DriverPhoto = z.infer<typeof DriverPhotoSchema>;

/** One driver with his photos: only for the registering enterprise and the trading centre. */
export const DriverDetailSchema = DriverSummarySchema.extend({
  photos: z.array(DriverPhotoSchema),
  createdBy: z.string(),
  auditedBy: z.string().nullable(),
});
export type DriverDetail = z.infer<typeof DriverDetailSchema>;
