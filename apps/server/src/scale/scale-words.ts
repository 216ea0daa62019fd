/**
 * Words the busy year's names are made of: enterprises named like real coal mines, traders and power plants of the
 * coal regions and the coast, people, banks and the provinces on truck plates.
 */

/** Where the enterprises sit: the coal regions (晋, 蒙, 陕, 冀, 豫, 鲁, 苏, 皖, 黔) and the buying coast. */
export const CITIES = [
  '朔州', '大同', '忻州', '吕梁', '晋城', '长治', '阳泉', '临汾', '鄂尔多斯', '包头',
  '乌海', '锡林郭勒', '呼伦贝尔', '榆林', '延安', '铜川', '渭南', '唐山', '邯郸', '邢台',
  '平顶山', '焦作', '淮南', '淮北', '徐州', '济宁', '枣庄', '六盘水', '毕节', '天津',
  '秦皇岛', '沧州', '上海', '宁波', '南京', '杭州', '广州', '福州', '青岛', '日照',
] as const;

export const NAME_FIRST = ['恒', '鑫', '泰', '丰', '汇', '宏', '盛', '源', '通', '达', '华', '兴', '隆', '昌', '瑞', '祥', '德', '安', '博', '远'] as const;
export const NAME_SECOND = ['能', '晟', '煤', '业', '信', '和', '鼎', '聚', '诚', '润', '嘉', '邦', '宇', '辰', '峰', '川', '科', '创', '顺', '金'] as const;

export const SUFFIX_BY_TYPE = {
  mine: '煤业有限公司',
  trader: '能源贸易有限公司',
  power_plant: '电力燃料有限公司',
  other: '物流有限公司',
} as const;

export const SURNAMES = ['王', '李', '张', '刘', '陈', '杨', '赵', '黄', '周', '吴', '徐', '孙', '胡', '朱', '高', '林', '何', '郭', '马', '罗', '梁', '宋', '郑', '谢', '韩', '唐', '冯', '于', '董', '萧'] as const;
export const GIVEN_NAMES = ['建国', '志强', '海涛', '伟', '芳', '敏', '静', '磊', '军', '洋', '勇', '艳', '杰', '娟', '涛', '明', '超', '秀英', '霞', '平', '刚', '桂英', '文', '辉', '鹏', '国庆', '长江', '天明', '晓东', '红梅'] as const;

export const BANKS = ['中国工商银行', '中国建设银行', '中国银行', '中国农业银行', '交通银行', '招商银行', '中信银行', '兴业银行', '中国民生银行', '浦发银行'] as const;

export const STREETS = ['开发南路', '建设北路', '迎宾大道', '矿区路', '煤城路', '世纪大道', '港城大道', '滨江西路', '人民路', '振兴街'] as const;

export const DEPOT_WORDS = ['集运站', '储煤场', '装车站', '煤炭物流园', '电厂码头', '铁路专用线'] as const;

/** Plate provinces, weighted by where coal trucks come from: 晋 and 蒙 most. */
export const PLATE_PROVINCES = ['晋', '晋', '晋', '蒙', '蒙', '蒙', '陕', '陕', '冀', '冀', '豫', '鲁', '宁', '甘', '苏'] as const;
/** Letters on plates: A–Z without I and O. */
export const PLATE_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';

export const VEHICLE_KINDS = ['heavy_semi_trailer', 'heavy_dump', 'heavy_box', 'heavy_flatbed'] as const;

export const LAB_NAMES = ['山西省煤炭质量检测中心', '内蒙古煤炭科学研究院检测中心', 'SGS 通标标准技术服务有限公司', '中国检验认证集团煤炭检测中心'] as const;

/** Province code prefixes (GB/T 2260) whose districts the enterprises are registered in. */
export const AREA_PROVINCES = ['14', '15', '61', '13', '41', '37', '32', '34', '52', '12', '31', '33', '44', '35'] as const;
